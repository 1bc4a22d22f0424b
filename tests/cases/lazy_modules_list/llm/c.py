from llm.a import A

C = A
