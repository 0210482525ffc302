"""The rule presets and the option catalogue: complete, consistent, and docs/rules.md up to date."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from gamesmaster.rules.options import CHOICES, RuleOptions
from gamesmaster.variants.presets import (PRESETS, describe_rules, load_preset, options_catalogue,
                                          rule_presets, rules_table_markdown, value_key)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
EXPECTED = ["1971", "1982", "2000", "2023", "graustark", "armageddonia", "erehwon", "brobdingnag"]
FIXED = ["s6", "s7", "s9", "s13", "s14", "s15", "s19", "s22", "s27", "s28"]
# TOML cannot write None: an option whose default is None (the short game's last_year) is
# left out of the preset files, every other option must be given.
UNSET = {name for name, value in RuleOptions().as_dict().items() if value is None}


def _doc(name: str) -> dict:
    return tomllib.loads((PRESETS / f"{name}.toml").read_text(encoding="utf-8"))


def test_the_presets_are_the_rulebooks_and_the_magazines() -> None:
    assert sorted(rule_presets()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
def test_every_preset_loads_and_gives_every_option(name: str) -> None:
    doc = _doc(name)
    assert doc.get("title"), f"{name} has no title"
    given = set(doc["options"])
    required = set(CHOICES) - UNSET
    assert required <= given <= set(CHOICES), \
        f"{name}: missing {required - given}, unknown {given - set(CHOICES)}"
    options = load_preset(name)
    assert options.preset == name
    assert {k: v for k, v in options.as_dict().items() if k in given} == doc["options"]


def test_the_2023_preset_is_the_default_options() -> None:
    assert load_preset("2023") == RuleOptions()


def test_the_catalogue_describes_every_option_and_every_value() -> None:
    catalogue = options_catalogue()["option"]
    assert set(catalogue) == set(CHOICES)
    for name, allowed in CHOICES.items():
        entry = catalogue[name]
        for key in ("section", "title", "explanation"):
            assert str(entry.get(key, "")).strip(), f"{name}: no {key}"
        numbers = [v for v in allowed if isinstance(v, int) and not isinstance(v, bool)]
        words = [v for v in allowed if v not in numbers]
        assert set(entry.get("values", {})) == {value_key(v) for v in words}, name
        assert all(str(text).strip() for text in entry.get("values", {}).values()), name
        if numbers:
            assert entry["range"] == [min(numbers), max(numbers)], name
        if numbers or name in UNSET:
            # a number goes into the `value` line (last_year: any game year besides none)
            assert "{value}" in entry["value"], name
        else:
            assert "value" not in entry and "range" not in entry, name


def test_the_catalogue_lists_the_fixed_points() -> None:
    fixed = options_catalogue()["fixed"]
    assert list(fixed) == FIXED
    for name, entry in fixed.items():
        assert entry["section"] == f"004 {name}"
        assert entry["title"].strip() and entry["explanation"].strip()


def test_docs_rules_md_is_the_generated_table() -> None:
    # Regenerate: .venv/bin/python -c "from gamesmaster.variants.presets import rules_table_markdown as t;
    #   open('docs/rules.md', 'w', encoding='utf-8').write(t())"
    assert DOCS.read_text(encoding="utf-8") == rules_table_markdown()


def test_the_table_has_a_row_per_option_and_a_column_per_preset() -> None:
    text = rules_table_markdown()
    header = next(line for line in text.splitlines() if line.startswith("| option | section |"))
    assert header.count("|") == len(EXPECTED) + 3
    catalogue = options_catalogue()["option"]
    for name, entry in catalogue.items():
        rows = [line for line in text.splitlines() if line.startswith(f"| {entry['title']} (`{name}`)")]
        assert len(rows) == 1, name
        assert rows[0].count("|") == len(EXPECTED) + 3, name


def test_describe_rules_gives_a_line_per_option() -> None:
    catalogue = options_catalogue()["option"]
    lines = describe_rules(load_preset("graustark"))
    assert len(lines) == len(CHOICES)
    short = describe_rules({"preset": "1971", "last_year": 1905})
    title = catalogue["last_year"]["title"]
    assert f"{title}: {catalogue['last_year']['value'].replace('{value}', '1905')}" in short
    assert f"{title}: {catalogue['last_year']['values']['none']}" in lines
    assert lines[0] == f"Koning's rule: {catalogue['koning']['values']['false']}"
    assert "3 game years" in next(line for line in lines if line.startswith(catalogue["deadlock_years"]["title"]))
    assert describe_rules(load_preset("graustark").as_dict()) == lines
