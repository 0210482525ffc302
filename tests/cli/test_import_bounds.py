"""Reading a hostile archive at the console door: bounded in size while it is read, and each refusal one
line (no traceback), for import, verify --archive and restore."""

from __future__ import annotations

import pytest


@pytest.fixture
def files(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    big = tmp_path / "big.json"
    with open(big, "w") as f:  # a saved game padded past the bound: 17 MB of one press message
        f.write('{"id": "x", "map": "standard", "rules": [], "phases": [{"name": "S1901M", "messages": [{"message": "')
        f.write("a" * (17 * 1024 * 1024))
        f.write('"}]}]}')
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"id": "\xff\xfe"}')
    return {"deep": deep, "big": big, "binary": binary}


@pytest.mark.parametrize("kind, says", [("deep", "nested too deep"), ("big", "is larger than 16 MB: not read"),
                                        ("binary", "not UTF-8")])
def test_a_hostile_archive_is_refused_in_one_line(gm_cli, files, kind, says):
    for argv in (["import", str(files[kind])], ["verify", "--archive", str(files[kind])]):
        code, out, err = gm_cli(*argv)
        assert code == 2 and says in err, (argv, code, err[-500:])
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err[-500:]
    if kind == "deep":
        code, out, err = gm_cli("restore", str(files[kind]))
        assert code == 2 and says in err and "Traceback" not in err, err[-500:]
