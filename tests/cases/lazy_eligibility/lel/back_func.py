from lel.in_func import H

F = H
