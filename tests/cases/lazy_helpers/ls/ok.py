import ls

z = ls.plain.Z
