import wildsub.core.never_imported

WHERE = wildsub.core.never_imported.VALUE
