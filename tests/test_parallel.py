"""parallel.map_slices: results in order whatever the slices, and every item exactly once."""
import os

from importsafe.parallel import map_slices


def tag(part):
    return [(item, os.getpid()) for item in part]


def test_equal_slices_keep_the_order():
    out = map_slices(tag, list(range(50)), 3)
    assert [item for item, _ in out] == list(range(50))
    assert len({pid for _, pid in out}) == 3


def test_a_first_slice_of_its_own_length_stays_in_this_process():
    out = map_slices(tag, list(range(50)), 3, first=30)
    assert [item for item, _ in out] == list(range(50))
    assert {pid for item, pid in out if item < 30} == {os.getpid()}
    others = {pid for item, pid in out if item >= 30}
    assert len(others) == 2 and os.getpid() not in others


def test_small_work_runs_here():
    assert map_slices(tag, [1, 2, 3], 2) == [(1, os.getpid()), (2, os.getpid()), (3, os.getpid())]
