# m_mid comes after it in sorted order: not imported yet
from dplug import bad_cases
Y = bad_cases.m_mid.Y
