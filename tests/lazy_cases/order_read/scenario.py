import lz_order
print(lz_order.summary.COUNT_AT_IMPORT)
