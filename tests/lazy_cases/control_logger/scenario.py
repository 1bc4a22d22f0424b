import lz_logger
print(lz_logger.run())
