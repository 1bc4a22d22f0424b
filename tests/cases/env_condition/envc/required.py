# os.environ[...] of a variable that is unset raises KeyError, in every order
import os

TOKEN = os.environ["IMPORTSAFE_CASE_TOKEN"]
