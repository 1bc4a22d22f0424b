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


def test_what_no_cyclic_gc_allocated_is_old_after_it():
    """The next collection after the block does not rescan what it allocated (the facts of a
    whole package, for a library caller): freeze + unfreeze moved it to the oldest
    generation, and the collector is on again."""
    import gc

    from importsafe.parallel import no_cyclic_gc
    was = gc.isenabled()
    gc.enable()
    try:
        with no_cyclic_gc():
            assert not gc.isenabled()
            marker = [[] for _ in range(10)]
        assert gc.isenabled()
        assert any(o is marker for o in gc.get_objects(generation=2))
        assert not any(o is marker for o in gc.get_objects(generation=0))
    finally:
        if not was:
            gc.disable()
