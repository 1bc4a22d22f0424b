# Python 3.12 syntax (PEP 695), analysed by importsafe on 3.11 through libcst
