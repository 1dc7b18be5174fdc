"""The calculators' arithmetic, worked steps and chart builders.

Pure Python and numpy: nothing in this package imports Django, so every
formula can be read, run and tested on its own. The Django layer
(``calculators.forms``, ``calculators.views``) is derived from the specs here.
"""
