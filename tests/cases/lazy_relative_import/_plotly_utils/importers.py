"""A stand-in for plotly's _plotly_utils.importers: relative_import as plotly ships it."""
import importlib


def relative_import(parent_name, rel_modules=(), rel_classes=()):
    module_names = {rel_module.split(".")[-1]: rel_module for rel_module in rel_modules}
    class_names = {rel_path.split(".")[-1]: rel_path for rel_path in rel_classes}

    def __getattr__(import_name):
        if import_name in module_names:
            rel_import = module_names[import_name]
            return importlib.import_module(rel_import, parent_name)
        if import_name in class_names:
            rel_path_parts = class_names[import_name].split(".")
            rel_module = ".".join(rel_path_parts[:-1])
            class_name = import_name
            class_module = importlib.import_module(rel_module, parent_name)
            return getattr(class_module, class_name)
        raise AttributeError(
            "module {__name__!r} has no attribute {name!r}".format(
                name=import_name, __name__=parent_name
            )
        )

    __all__ = list(module_names) + list(class_names)

    def __dir__():
        return __all__

    return __all__, __getattr__, __dir__
