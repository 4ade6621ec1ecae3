"""Recognize an archive of ink on Apache Spark with ``inkrec`` (see Integrations/spark/README.md).

``recognize(df, language="en-US")`` streams each partition through one long-lived
``inkrec recognize --batch -`` process and adds the text, candidates and an error column.
"""
from .inks import ink_line
from .process import InkrecDied, InkrecProcess, find_inkrec
from .spark import inkrec_command, recognize, recognize_partition

__all__ = ["recognize", "recognize_partition", "inkrec_command", "ink_line", "InkrecProcess", "InkrecDied",
           "find_inkrec"]
__version__ = "0.1.0"
