"""Simulated rater personas (MultiCom): a helpfulness forecast for every draft, grounded in
clusters of real Community Notes raters."""
