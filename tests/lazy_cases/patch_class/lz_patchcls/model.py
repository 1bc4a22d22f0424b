class Model:
    def describe(self):
        return 'model'
