from llm.a import A


class B:
    origin = A
