# an import of a module that raises, under an `if` the checker cannot decide, met twice: the
# second time the import's recording is replayed, and must raise as the first did
