"""viz's user-facing strings in one table, English and Chinese: ``viz.set_language("zh")``.

Every text the stepper shows -- panel, legend, buttons, messages, predict-mode feedback --
comes from :data:`STRINGS`; the JavaScript gets the table of the current language with
the stepper's state (``strings``), so the offline HTML is in the language it was saved in.
Placeholders are ``{name}`` (filled by :func:`t` in Python, by the same rule in the JS).
The Chinese terms follow the course glossary (叶子节点 leaf, 计算图 computation graph,
链式法则 chain rule, 雅可比向量积 vector-Jacobian product, 梯度累加 gradient accumulation,
原地操作 in-place op, 版本计数器 version counter).

>>> set_language("zh"); t("chain_rule")
'链式法则'
>>> set_language("en"); t("step_of", k=2, n=7)
'step 2 of 7'
"""

from __future__ import annotations

__all__ = ["LANGUAGES", "STRINGS", "set_language", "get_language", "t", "strings"]

LANGUAGES = ("en", "zh")

#: key -> (English, Chinese)
_TABLE: dict[str, tuple[str, str]] = {
    # legend under the graph
    "key_current": ("running now", "正在执行"),
    "key_waiting": ("gradient arrived, waiting", "梯度已到达，等待中"),
    "key_done": ("done", "已完成"),
    "key_pending": ("not reached yet", "尚未到达"),
    "key_freed": ("saved buffers freed", "保存的张量已释放"),
    # toolbar
    "first": ("first step (Home)", "第一步 (Home)"),
    "previous": ("previous step (←)", "上一步 (←)"),
    "play": ("▶ play", "▶ 播放"),
    "pause": ("❚❚ pause", "❚❚ 暂停"),
    "play_title": ("play / pause (space)", "播放 / 暂停 (空格)"),
    "next": ("next step (→)", "下一步 (→)"),
    "last": ("last step (End)", "最后一步 (End)"),
    "slider": ("step", "步骤"),
    "speed": ("speed (steps per second)", "速度（每秒步数）"),
    "rerun": ("backward again", "再次 backward"),
    "rerun_title": ("call backward() once more on the same root", "对同一个根再调用一次 backward()"),
    "fit": ("fit", "适应"),
    "fit_title": ("show the running node at a readable size (wheel: zoom, drag: move)",
                  "以清晰的大小显示正在执行的节点（滚轮缩放，拖动平移）"),
    "panel": ("panel", "面板"),
    "panel_title": ("show / hide the explanation panel", "显示 / 隐藏说明面板"),
    "counter": ("step {k} / {n}", "第 {k} / {n} 步"),
    "aria_stepper": ("backward stepper", "反向传播单步演示"),
    # panel
    "before_backward": ("Before backward()", "backward() 之前"),
    "starts_at": ("backward() starts at {roots}, seeded with the gradient below. Press ▶ (or →) to run one node.",
                  "backward() 从 {roots} 开始，初始梯度如下。按 ▶（或 →）执行一个节点。"),
    "seed_gradient": ("seed gradient", "初始梯度"),
    "step_of": ("step {k} of {n}", "第 {k} 步，共 {n} 步"),
    "makes": ("made {name} in the forward pass; now it sends the gradient on to its inputs",
              "在前向传播中计算了 {name}；现在把梯度传给它的输入"),
    "chain_rule": ("chain rule", "链式法则"),
    "local_derivative": ("local derivative", "局部导数"),
    "incoming": ("incoming gradient (grad_outputs)", "传入的梯度 (grad_outputs)"),
    "outgoing": ("outgoing gradients (grad_inputs)", "传出的梯度 (grad_inputs)"),
    "grad_before_after": (".grad before → after", ".grad 之前 → 之后"),
    "accumulates": ("gradient accumulation: {name}.grad ← {before} + {g} = {after}",
                    "梯度累加：{name}.grad ← {before} + {g} = {after}"),
    "first_grad": ("{name}.grad was None: it becomes {after}", "{name}.grad 原为 None：现在为 {after}"),
    "before": ("before", "之前"),
    "after": ("after", "之后"),
    "not_computed": ("not computed yet", "尚未计算"),
    "no_grad_needed": ("→ (no grad needed)", "→（不需要梯度）"),
    "to": ("→ {name}", "→ {name}"),
    "events": ("events at this step", "这一步触发的事件"),
    "freed_buffers": ("freed buffers", "已释放的缓冲区"),
    "freed_text": ("backward() without retain_graph freed the saved tensors of:",
                   "没有 retain_graph 的 backward() 释放了以下节点保存的张量："),
    "more": ("… and {n} more", "……还有 {n} 个"),
    "result": ("result: .grad of the leaves", "结果：叶子节点的 .grad"),
    "heatmap": ("shape {shape} (hover for values)", "形状 {shape}（悬停查看数值）"),
    "shape": ("shape {shape}", "形状 {shape}"),
    "none": ("None", "None"),
    # inspector
    "inspect": ("inspect {name}", "查看 {name}"),
    "close": ("close", "关闭"),
    "no_details": ("no details recorded", "没有记录的详细信息"),
    "as_recorded": ("as recorded when the stepper was made", "创建单步演示时记录的内容"),
    "live_now": ("in Python now", "Python 中的当前值"),
    "saved_when_ran": ("saved when it ran (for backward)", "前向运行时保存的值（供反向传播使用）"),
    "saved_nothing": ("saves nothing for backward", "没有为反向传播保存任何值"),
    "freed_after": ("freed after this step", "这一步之后被释放"),
    "freed_already": ("freed by an earlier backward()", "已被之前的 backward() 释放"),
    "data": ("data", "数据"),
    "grad_at_step": (".grad at this step", "这一步的 .grad"),
    "leaf": ("leaf", "叶子节点"),
    "node": ("node", "节点"),
    "runs_at": ("runs at step {k}", "在第 {k} 步执行"),
    "not_run": ("not run yet", "尚未执行"),
    # predict mode
    "predict_mode": ("predict mode: type each gradient before it is shown", "预测模式：先输入每个梯度，再查看答案"),
    "predict_prompt": ("your value", "你的答案"),
    "check": ("check", "检查"),
    "reveal": ("reveal", "显示答案"),
    "hidden": ("hidden: predict it first", "已隐藏：请先预测"),
    "right": ("Right: {value}.", "正确：{value}。"),
    "wrong": ("Not quite: {guess} is not it.", "不对：{guess} 不是正确答案。"),
    "wrong_sign": ("Not quite: {guess} has the wrong sign.", "不对：{guess} 的符号错了。"),
    "wrong_count": ("Not quite: this gradient has {n} numbers, you typed {m}.",
                    "不对：这个梯度有 {n} 个数，你输入了 {m} 个。"),
    "not_a_number": ("Type a number (or a list such as [1, -2]).", "请输入一个数（或像 [1, -2] 这样的列表）。"),
    "revealed": ("Revealed: {value}.", "答案：{value}。"),
    "score": ("Score: {right} of {asked} predicted right ({revealed} revealed).",
              "得分：{asked} 个中预测正确 {right} 个（显示答案 {revealed} 个）。"),
    "too_big_to_predict": ("too many numbers to type: shown", "数值太多，无法输入：直接显示"),
    # messages
    "hint_inplace": ("In-place violation: output {nr} of {name} was saved for backward at version {expected}, "
                     "then modified in place (now version {version}).",
                     "原地操作冲突：{name} 的输出 {nr} 在版本 {expected} 时被保存用于反向传播，"
                     "之后被原地修改（版本计数器现在为 {version}）。"),
    "hint_second_time": ("The first backward() freed the saved tensors; pass retain_graph=True to it.",
                         "第一次 backward() 已释放保存的张量；请给它传 retain_graph=True。"),
    "hint_no_grad": ("The root is not part of a graph: nothing requires grad.",
                     "根不在计算图中：没有张量需要梯度 (requires_grad)。"),
    "hint_scalar": ("A non-scalar root needs gradient= (a tensor of its shape).",
                    "非标量的根需要 gradient=（一个与它形状相同的张量）。"),
    "hint_rerun": ("This graph's buffers were already freed by an earlier backward(): "
                   "run the cell that builds the graph again, then this one.",
                   "这个计算图的缓冲区已被之前的 backward() 释放：请重新运行构建计算图的单元格，再运行这个单元格。"),
    "stepper_hint": ("Backward stepper ({steps} steps), first frame. To step through it, run the notebook "
                     "in Jupyter with the widget front end (pip install anywidget), or save an offline "
                     "stepper with .save_html(\"stepper.html\") and open it in a browser.",
                     "反向传播单步演示（共 {steps} 步），第一帧。要单步执行，请在带有小部件前端的 Jupyter 中运行 "
                     "notebook（pip install anywidget），"
                     "或用 .save_html(\"stepper.html\") 保存离线版本并在浏览器中打开。"),
    "stepper_alt": ("backward stepper, first frame", "反向传播单步演示，第一帧"),
    # print()
    "table_step": ("step", "步骤"),
    "table_node": ("node", "节点"),
    "table_in": ("incoming", "传入"),
    "table_sent": ("sent on / .grad", "传出 / .grad"),
    "freed_list": ("freed buffers: {names}", "已释放的缓冲区：{names}"),
    "error": ("error: {text}", "错误：{text}"),
}

#: language -> key -> text
STRINGS: dict[str, dict[str, str]] = {lang: {key: pair[i] for key, pair in _TABLE.items()}
                                       for i, lang in enumerate(LANGUAGES)}

_current = "en"


def set_language(language: str) -> None:
    """Choose the language of viz's texts: ``"en"`` (default) or ``"zh"``.

    Applies to steppers shown or saved afterwards.
    """
    global _current
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")
    _current = language


def get_language() -> str:
    """The current language code."""
    return _current


def t(key: str, language: str | None = None, **values: object) -> str:
    """The text of ``key`` in the current language, with ``{name}`` placeholders filled."""
    text = STRINGS[language or _current][key]
    return text.format(**values) if values else text


def strings(language: str | None = None) -> dict[str, str]:
    """The whole table of one language (what the JavaScript receives)."""
    return dict(STRINGS[language or _current])
