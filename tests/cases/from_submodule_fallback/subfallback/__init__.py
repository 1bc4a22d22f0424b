# R5: an empty package; its submodules import each other as module objects.
