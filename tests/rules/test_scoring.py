"""Every scoring system against hand-worked examples (docs/scoring.md works one of each)."""

import pytest

from gamesmaster.rules.scoring import Board, Result, ScoringError, ScoringSystem as S, fits, score

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


def board(*counts: int, played: dict[str, int] | None = None, years: int | None = None) -> Board:
    return Board.of(dict(zip(POWERS, counts)), played=played, years=years)


def test_none_scores_nothing():
    assert score(S.NONE, board(5, 5, 5, 5, 5, 5, 4)) == {}


@pytest.mark.parametrize("system,points", [(S.DSS, 100), (S.SOS, 100), (S.CARNAGE, 28034), (S.C_DIPLO, 100),
                                           (S.TRIBUTE, 100)])
def test_a_solo_takes_everything(system, points):
    scores = score(system, board(18, 4, 4, 4, 2, 2, 0, played={"TURKEY": 3}), Result(solo="AUSTRIA"))
    assert scores == {p: (points if p == "AUSTRIA" else 0) for p in POWERS}


@pytest.mark.parametrize("size", range(2, 8))
def test_dss_shares_a_draw_equally(size):
    counts = [34 // size] * size + [0] * (7 - size)
    counts[0] += 34 - sum(counts)
    scores = score(S.DSS, board(*counts), Result(draw=POWERS[:size]))
    assert scores == {p: (round(100 / size, 2) if i < size else 0) for i, p in enumerate(POWERS)}


def test_dss_if_it_ended_now_is_a_draw_of_the_survivors():
    assert score(S.DSS, board(10, 10, 14, 0, 0, 0, 0)) == {
        "AUSTRIA": 33.33, "ENGLAND": 33.33, "FRANCE": 33.33, "GERMANY": 0, "ITALY": 0, "RUSSIA": 0, "TURKEY": 0}


def test_sos_squares_over_every_survivor():
    # 10, 8, 6, 4, 3, 2, 1: squares 100 + 64 + 36 + 16 + 9 + 4 + 1 = 230; a 3-way draw of the top three
    scores = score(S.SOS, board(10, 8, 6, 4, 3, 2, 1), Result(draw=("AUSTRIA", "ENGLAND", "FRANCE")))
    assert scores == {"AUSTRIA": 43.48, "ENGLAND": 27.83, "FRANCE": 15.65, "GERMANY": 0, "ITALY": 0, "RUSSIA": 0,
                      "TURKEY": 0}


def test_sos_two_way_draw_with_eliminated_powers():
    scores = score(S.SOS, board(17, 17, 0, 0, 0, 0, 0), Result(draw=("AUSTRIA", "ENGLAND")))
    assert scores["AUSTRIA"] == scores["ENGLAND"] == 50 and scores["TURKEY"] == 0


def test_carnage_ranks_survivors_then_the_eliminated_by_how_long_they_lasted():
    scores = score(S.CARNAGE, board(0, 3, 6, 4, 0, 14, 7, played={"AUSTRIA": 3, "ITALY": 5}))
    assert scores == {"RUSSIA": 7014, "TURKEY": 6007, "FRANCE": 5006, "GERMANY": 4004, "ENGLAND": 3003,
                      "ITALY": 2000, "AUSTRIA": 1000}


def test_carnage_tied_ranks_share_their_places():
    scores = score(S.CARNAGE, board(1, 8, 7, 0, 4, 8, 6, played={"GERMANY": 4}))
    assert scores == {"ENGLAND": 6508, "RUSSIA": 6508, "FRANCE": 5007, "TURKEY": 4006, "ITALY": 3004,
                      "AUSTRIA": 2001, "GERMANY": 1000}


def test_carnage_eliminated_powers_of_unknown_length_tie():
    scores = score(S.CARNAGE, board(0, 0, 10, 10, 14, 0, 0))
    assert scores["AUSTRIA"] == scores["TURKEY"] == 2500 and scores["ITALY"] == 7014


def test_c_diplo_bonuses_and_shared_places():
    scores = score(S.C_DIPLO, board(4, 0, 9, 7, 7, 3, 4), Result(draw=("AUSTRIA", "FRANCE", "GERMANY", "ITALY",
                                                                        "RUSSIA", "TURKEY")))
    assert scores == {"AUSTRIA": 5, "ENGLAND": 1, "FRANCE": 48, "GERMANY": 18.5, "ITALY": 18.5, "RUSSIA": 4,
                      "TURKEY": 5}
    assert sum(scores.values()) == 100


def test_c_diplo_a_shared_third_place():
    scores = score(S.C_DIPLO, board(5, 9, 4, 5, 3, 1, 7))
    assert scores == {"AUSTRIA": 9.5, "ENGLAND": 48, "FRANCE": 5, "GERMANY": 9.5, "ITALY": 4, "RUSSIA": 2,
                      "TURKEY": 22}


def test_c_diplo_a_seven_way_tie_at_the_top_shares_all_bonuses():
    scores = score(S.C_DIPLO, board(5, 5, 5, 5, 5, 5, 4))
    assert scores["AUSTRIA"] == round(1 + 5 + 59 / 6, 2) and scores["TURKEY"] == 5


def test_manorcon_draw():
    # P = S^2 + 4S + 16: 12 -> 208, 10 -> 156, 8 -> 112, 4 -> 48, 0 -> 16 (three times): B = 572
    scores = score(S.MANORCON, board(12, 10, 8, 4, 0, 0, 0, played={"ITALY": 3, "RUSSIA": 5, "TURKEY": 7}))
    assert scores == {"AUSTRIA": 36.36, "ENGLAND": 27.27, "FRANCE": 19.58, "GERMANY": 8.39, "ITALY": 0.3,
                      "RUSSIA": 0.5, "TURKEY": 0.7}


def test_manorcon_solo_scores_the_others_by_years():
    scores = score(S.MANORCON, board(18, 6, 5, 5, 0, 0, 0, played={"ITALY": 4, "RUSSIA": 6, "TURKEY": 8}, years=9),
                   Result(solo="AUSTRIA"))
    assert scores == {"AUSTRIA": 75, "ENGLAND": 0.9, "FRANCE": 0.9, "GERMANY": 0.9, "ITALY": 0.4, "RUSSIA": 0.6,
                      "TURKEY": 0.8}


def test_manorcon_needs_the_years_of_the_eliminated():
    with pytest.raises(ScoringError, match="years it played"):
        score(S.MANORCON, board(12, 10, 8, 4, 0, 0, 0))


def test_tribute_five_way_draw():
    # Survivors share 66 (13.2 each) and pay the topper 13 - 6 = 7 each
    scores = score(S.TRIBUTE, board(0, 0, 13, 4, 4, 12, 1), Result(draw=("FRANCE", "GERMANY", "ITALY", "RUSSIA",
                                                                          "TURKEY")))
    assert scores == {"AUSTRIA": 0, "ENGLAND": 0, "FRANCE": 54.2, "GERMANY": 10.2, "ITALY": 10.2, "RUSSIA": 18.2,
                      "TURKEY": 7.2}


def test_tribute_is_capped_by_the_share_and_split_by_tied_toppers():
    scores = score(S.TRIBUTE, board(15, 15, 4, 0, 0, 0, 0), Result(draw=("AUSTRIA", "ENGLAND", "FRANCE")))
    # share 22, tribute min(9, 22) = 9 from France, split between the two toppers
    assert scores["AUSTRIA"] == scores["ENGLAND"] == 41.5 and scores["FRANCE"] == 17
    capped = score(S.TRIBUTE, board(17, 1, 1, 1, 1, 1, 1))  # share 66/7, tribute 11 capped at 9.43
    assert capped["ENGLAND"] == 1.0 and capped["AUSTRIA"] == round(17 + 66 / 7 + 6 * 66 / 7, 2)


def test_tribute_small_topper_takes_no_tribute():
    scores = score(S.TRIBUTE, board(6, 6, 5, 5, 4, 4, 4))
    assert scores["AUSTRIA"] == round(6 + 66 / 7, 2) and scores["TURKEY"] == round(4 + 66 / 7, 2)


@pytest.mark.parametrize("system", [S.CARNAGE, S.C_DIPLO, S.TRIBUTE])
def test_tournament_systems_refuse_other_boards(system):
    assert "standard board" in (fits(system, 9, 45) or "")
    with pytest.raises(ScoringError, match="standard board"):
        score(system, Board.of({"A": 10, "B": 5}, total=45))


@pytest.mark.parametrize("system", [S.DSS, S.SOS, S.MANORCON])
def test_dss_sos_manorcon_score_any_board(system):
    assert fits(system, 9, 45) is None
    assert score(system, Board.of({"A": 30, "B": 15}, total=45))["A"] > 0


@pytest.mark.parametrize("bad,result,message", [
    ({"AUSTRIA": 30, "ENGLAND": 10}, None, "map has 34"),
    ({"AUSTRIA": -1}, None, "cannot hold"),
    ({"AUSTRIA": 10}, Result(draw=("SPAIN",)), "unknown power 'SPAIN'"),
    ({"AUSTRIA": 10}, Result(solo="SPAIN"), "unknown power"),
    ({"AUSTRIA": 10, "ENGLAND": 2}, Result(solo="AUSTRIA", draw=("ENGLAND",)), "not both"),
])
def test_boards_that_do_not_score(bad, result, message):
    with pytest.raises(ScoringError, match=message):
        score(S.DSS, Board.of(bad), result)


def test_years_played_are_bounded():
    with pytest.raises(ScoringError, match="ENGLAND: an eliminated power played from 1 to 10000 years, not -3"):
        score(S.MANORCON, Board.of({"AUSTRIA": 10, "ENGLAND": 0}, played={"ENGLAND": -3}))
    with pytest.raises(ScoringError, match="a game lasts from 1 to 10000 years, not 0"):
        score(S.MANORCON, Board.of({"AUSTRIA": 18, "ENGLAND": 1}, years=0), Result(solo="AUSTRIA"))


def test_unknown_system_names_the_choices():
    with pytest.raises(ScoringError, match="choose none, dss, sos"):
        S.named("elo")
    assert S.named(" C-Diplo ") is S.C_DIPLO


def test_tribute_two_four_and_six_way_draws():
    two = score(S.TRIBUTE, board(17, 17, 0, 0, 0, 0, 0), Result(draw=("AUSTRIA", "ENGLAND")))
    assert two["AUSTRIA"] == two["ENGLAND"] == 50  # tied toppers: nobody pays
    four = score(S.TRIBUTE, board(10, 9, 8, 7, 0, 0, 0))  # share 16.5, tribute 4 from each of three
    assert [four[p] for p in POWERS[:4]] == [38.5, 21.5, 20.5, 19.5] and sum(four.values()) == 100
    six = score(S.TRIBUTE, board(9, 5, 5, 5, 5, 5, 0))  # share 11, tribute 3 from each of five
    assert six["AUSTRIA"] == 35 and six["ENGLAND"] == 13 and six["TURKEY"] == 0


def test_sos_survivors_outside_the_draw_score_nothing_but_count_in_the_squares():
    scores = score(S.SOS, board(12, 12, 10, 0, 0, 0, 0), Result(draw=("AUSTRIA", "ENGLAND")))
    assert scores["AUSTRIA"] == scores["ENGLAND"] == round(100 * 144 / 388, 2) and scores["FRANCE"] == 0


def test_a_draw_with_an_eliminated_power_is_refused():
    with pytest.raises(ScoringError, match="TURKEY is out of the game"):
        score(S.DSS, board(17, 17, 0, 0, 0, 0, 0), Result(draw=("AUSTRIA", "TURKEY")))


def test_c_diplo_a_two_way_tie_at_the_top_shares_first_and_second():
    scores = score(S.C_DIPLO, board(12, 12, 5, 5, 0, 0, 0))
    # (38 + 14) / 2 = 26 each; the two on 5 share third: 3.5 each; the eliminated score 1 for playing
    assert scores == {"AUSTRIA": 39, "ENGLAND": 39, "FRANCE": 9.5, "GERMANY": 9.5, "ITALY": 1, "RUSSIA": 1,
                      "TURKEY": 1}


def test_c_diplo_powers_without_centres_share_the_place_left():
    scores = score(S.C_DIPLO, board(17, 17, 0, 0, 0, 0, 0), Result(draw=("AUSTRIA", "ENGLAND")))
    assert scores["AUSTRIA"] == scores["ENGLAND"] == 44 and scores["TURKEY"] == 2.4 and round(sum(scores.values()), 2) == 100
