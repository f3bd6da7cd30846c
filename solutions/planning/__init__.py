"""Long tasks: staged runs with validated checkpoints, Plan-and-Execute, the real-model path.

Built in lesson 11 (Long tasks).
"""
from solutions.planning.checkpoints import (last_quarter, order_rows, validate_orders,
                                            validate_report, validate_totals)
from solutions.planning.plan_execute import PlanRun, capped_orders, plan_and_execute
from solutions.planning.report import REPORT_TASK, long_report, report_stages, staged_report
from solutions.planning.stages import Stage, StagedRun, StageResult, run_stages

__all__ = ["last_quarter", "order_rows", "validate_orders", "validate_report", "validate_totals",
           "PlanRun", "capped_orders", "plan_and_execute", "REPORT_TASK", "long_report",
           "report_stages", "staged_report", "Stage", "StagedRun", "StageResult", "run_stages"]
