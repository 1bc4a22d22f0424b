import lz_pure
print(lz_pure.area(lz_pure.Square(3)))
