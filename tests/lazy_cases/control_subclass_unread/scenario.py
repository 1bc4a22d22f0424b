import lz_subunread
print(lz_subunread.Leaf().kind())
