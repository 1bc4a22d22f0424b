# conditional: `if __name__ == "__main__":` never runs on import, so this cycle edge does not exist.
B = "b"

if __name__ == "__main__":
    from cond.a import A
