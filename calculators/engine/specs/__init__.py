"""One module per calculator, each defining ``CALCULATOR`` (see ``..spec``)."""
