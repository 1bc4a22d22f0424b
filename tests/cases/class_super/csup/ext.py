import json


class Encoder(json.JSONEncoder):
    @classmethod
    def make(cls):
        return super().__new__(cls)  # json's class is not analysed: its MRO is not known


MADE = Encoder.make()
