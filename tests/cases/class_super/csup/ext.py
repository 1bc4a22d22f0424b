import json


class Encoder(json.JSONEncoder):
    @classmethod
    def make(cls):
        return super().__new__(cls)  # json's: none of the analysed code


MADE = Encoder.make()
