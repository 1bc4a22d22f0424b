try:
    from lel.back_try import B  # inside try: never lazy
except KeyError:
    B = None

T = 1
