"""Approve/Deny buttons for lesson 09 (Safety limits); the one implementation is `solutions.widgets.approval`."""
from solutions.widgets.approval import ApprovalButtons, describe_pending

__all__ = ["ApprovalButtons", "describe_pending"]
