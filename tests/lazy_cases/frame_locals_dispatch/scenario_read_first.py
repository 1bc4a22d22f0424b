import lz_frames.read_first as shapes
print(type(shapes.union).__name__, len(shapes.union.funcs))
