"""The script kit's tools (``inkrec_training/writing``): pictures and the coverage of real-letter words."""
