"""EchoMQ for Python: enqueue to and await jobs of EchoMQ queues through the scripts the Java engine runs."""

from .client import AwaitTimeout, Client, JobFailed, JobGone
from .ids import mint
from .scripts import Scripts, ScriptError

__all__ = ["Client", "Scripts", "ScriptError", "JobFailed", "JobGone", "AwaitTimeout", "mint"]
