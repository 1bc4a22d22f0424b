import lz_frames.shapes as shapes
print(type(shapes.union).__name__, len(shapes.union.funcs))
