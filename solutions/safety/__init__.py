"""Safety limits for the agent: least privilege, approval, an audit log, escalation, idempotent
side effects and a defence against prompt injection. Built in lesson 09 (Safety limits).

One small module per idea: `privilege` (allowlist, read-only tools, the 30-day window, the
side-effect tools), `approval` (the gate), `audit` (JSON lines), `injection` (tool output as data),
`agent` (SafeAgent, all of them together), `sweep` (counting dangerous calls). The Approve/Deny
buttons for a person are `solutions.course.widgets.ApprovalButtons`. Lesson 15 (Exfiltration) adds
`egress` (the egress policy), `exfiltration` (injections that ask for a leak) and `leak_sweep` (the
defence table with the leaks).
"""
from solutions.safety.agent import MAX_FAILURES, SafeAgent
from solutions.safety.approval import POLICIES, GatedTools, ToolCall, approval_decision, needs_approval
from solutions.safety.audit import AuditLog, AuditReading, read_audit
from solutions.safety.injection import FLAG, DataTools, as_data, has_instruction, neutralise
from solutions.safety.privilege import (ORDER_WINDOW_DAYS, allowlist, delete_orders_tool, idempotency_key,
                                        read_only, recent_orders_tool, send_email_tool, shop_tools)

__all__ = ["MAX_FAILURES", "SafeAgent", "POLICIES", "GatedTools", "ToolCall", "approval_decision",
           "needs_approval", "AuditLog", "AuditReading", "read_audit", "FLAG", "DataTools", "as_data",
           "has_instruction", "neutralise", "ORDER_WINDOW_DAYS", "allowlist", "delete_orders_tool",
           "idempotency_key", "read_only", "recent_orders_tool", "send_email_tool", "shop_tools"]
