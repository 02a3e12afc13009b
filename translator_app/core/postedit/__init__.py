"""What happens to a translation after the model's search: the steps that propose other
decodes or rewrite a candidate (pipeline.py lists them in order) and the one judge that
chooses among candidates (judge.py)."""
