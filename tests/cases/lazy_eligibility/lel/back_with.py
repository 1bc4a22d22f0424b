from lel.in_with import V

W = V
