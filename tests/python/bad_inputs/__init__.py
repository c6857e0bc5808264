"""The catalogue of bad inputs (issue 27): each module here lists `CASES`, the inputs a user
can get wrong in one area, with the one-line answer each must get. The test that runs them
all is `tests/python/test_bad_input_catalogue.py`."""
