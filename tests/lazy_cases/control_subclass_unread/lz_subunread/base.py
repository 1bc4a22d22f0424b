class Node:
    def kind(self):
        return type(self).__name__
