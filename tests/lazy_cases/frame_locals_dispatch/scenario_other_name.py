import lz_frames.other_name as shapes
print(shapes.intersect.__name__, type(shapes.union).__name__)
