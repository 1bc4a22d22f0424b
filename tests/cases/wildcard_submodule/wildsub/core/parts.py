PART_A = 1
PART_B = 2
__all__ = [name for name in globals() if name.startswith("PART_")]
