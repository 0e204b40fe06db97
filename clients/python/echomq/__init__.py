"""EchoMQ for Python: enqueue to and await jobs of EchoMQ queues through the scripts the Java engine runs."""

from .client import Client, EnqueueResult, Flow, FlowJob, JobInfo, UniqueKey
from .errors import (AwaitError, AwaitTimeout, AwaitTimeoutError, EchoMqError, InvalidArgumentError,
                     InvalidJobIdError, InvalidQueueNameError, JobCancelledError, JobFailed, JobFailedError, JobGone,
                     JobGoneError, JobNotFoundError, ProtocolError, ScriptError, UnsupportedFormatError,
                     WrongKeyTypeError, DuplicateJobError, LaneFullError)
from .ids import mint
from .scripts import Scripts

__all__ = ["Client", "Scripts", "UniqueKey", "Flow", "FlowJob", "JobInfo", "EnqueueResult", "mint",
           "EchoMqError", "InvalidQueueNameError", "InvalidJobIdError", "InvalidArgumentError", "ProtocolError",
           "UnsupportedFormatError", "WrongKeyTypeError", "DuplicateJobError", "LaneFullError", "AwaitError", "AwaitTimeoutError", "JobFailedError", "JobGoneError",
           "JobCancelledError", "JobNotFoundError", "ScriptError", "JobFailed", "JobGone", "AwaitTimeout"]
