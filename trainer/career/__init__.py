"""The career: ten levels of bots and the master table, a match at a time (``lessons/career.py``)."""
