"""ktr for the Hugging Face ``evaluate`` library: a metric module that ``evaluate.load`` reads from
the installed package (:func:`ktr.resources.evaluate_metric` gives its path)."""
