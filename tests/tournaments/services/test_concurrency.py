from tests.fresh_sqlite import module_run_on_fresh_sqlite


def test_concurrent_result_entry_loses_nothing(tmp_path):
    result = module_run_on_fresh_sqlite(
        "tests.tournaments.services.concurrent_entry", folder=tmp_path
    )
    # Four matches of six games: 24 entries fit, the other 16 are refused as
    # full; none is lost, none doubled, numbers have no gaps.
    assert result["ok"] == 24 and result["full"] == 16
    assert result["numbers"] == [[1, 2, 3, 4, 5, 6]] * 4
    assert result["racks"] == 24 * 4
