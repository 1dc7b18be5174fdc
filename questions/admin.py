"""Banks and questions in the admin: lists to sort and filter, a question's calculator inputs as real fields."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from django.contrib import admin
from django.db.models import Count, Max
from django.forms.models import BaseInlineFormSet, BaseModelFormSet
from django.urls import reverse
from django.utils.html import format_html

from glossary.models import Term
from instructors.admin_base import VALUES, CalculatorValuesAdmin, ContentAdmin, export_banks
from instructors.forms import CalculatorValuesForm, ContentRulesForm, LinesField, MarkdownField, MarkdownWidget
from prepsite.content import ContentError

from .content import bank_record, question_record
from .models import Bank, Question

ADMIN = Path("admin")  # where an entry read from a form "comes from"; its messages are shown without it


def order_clashes(moves: dict[int | None, tuple[int, int]]) -> dict[int | None, str]:
    """Questions moved to (bank id, order), by pk (None: a new one): for each that would share its place in its
    bank with another question once every move is made, that other question's title.

    Orders are unique within a bank in a content file (prev/next and the practice queue follow them), so the
    admin keeps them unique too; moves are taken together, so two questions may swap places in one save.
    """
    places: dict[int | None, tuple[int, int, str]] = {
        row["pk"]: (row["bank_id"], row["order"], row["title"])
        for row in Question.objects.filter(bank__in={bank for bank, _ in moves.values()}).values(
            "pk", "bank_id", "order", "title"
        )
    }
    for pk, (bank, order) in moves.items():
        places[pk] = (bank, order, places[pk][2] if pk in places else "the new question")
    at: dict[tuple[int, int], list[tuple[int | None, str]]] = defaultdict(list)
    for pk, (bank, order, title) in places.items():
        at[(bank, order)].append((pk, title))
    clashes = {}
    for pk, place in moves.items():
        others = [title for other, title in at[place] if other != pk]
        if others:
            clashes[pk] = others[0]
    return clashes


def clash_message(order: int, title: str) -> str:
    return f"{order} is also the order of “{title}” in this bank: give each question its own place."


class QuestionOrderFormSetMixin:
    """The questions' list and a bank's inline edit several orders at once: each must end up unique in its bank."""

    def clean(self):
        super().clean()
        if any(self.errors):
            return
        forms_by_pk, moves = {}, {}
        for form in self.forms:
            if not hasattr(form, "cleaned_data") or form.cleaned_data.get("DELETE") or form.instance.pk is None:
                continue
            if form.instance.order < 1:
                form.add_error("order", "Must be at least 1: a bank numbers its questions from 1.")
                continue
            forms_by_pk[form.instance.pk] = form
            moves[form.instance.pk] = (form.instance.bank_id, form.instance.order)
        for pk, title in order_clashes(moves).items():
            forms_by_pk[pk].add_error("order", clash_message(forms_by_pk[pk].instance.order, title))


class QuestionOrderFormSet(QuestionOrderFormSetMixin, BaseModelFormSet):
    pass


class QuestionOrderInlineFormSet(QuestionOrderFormSetMixin, BaseInlineFormSet):
    pass


class QuestionInline(admin.TabularInline):
    """A bank's questions, to reorder or retitle in place; a question's own page has everything else."""

    model = Question
    formset = QuestionOrderInlineFormSet
    fields = ("order", "title", "difficulty", "slug")
    readonly_fields = ("slug",)
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ("order", "title")

    def has_add_permission(self, request, obj=None):
        return False  # a new question needs its calculator and worked answer: the "Add question" page


class BankForm(ContentRulesForm):
    summary = MarkdownField(required=False, widget=MarkdownWidget(rows=3), help_text="Markdown: what the bank covers.")

    class Meta:
        model = Bank
        fields = ("title", "slug", "order", "summary")

    def content_entry(self) -> dict:
        return {key: self.cleaned_data.get(key) for key in ("slug", "title", "order", "summary")}

    def read_content_entry(self, entry: dict) -> None:
        bank_record(ADMIN, entry)


@admin.register(Bank)
class BankAdmin(ContentAdmin):
    form = BankForm
    list_display = ("title", "slug", "order", "question_count", "updated")
    list_display_links = ("title",)
    list_editable = ("order",)
    search_fields = ("title", "slug", "summary")
    prepopulated_fields = {"slug": ("title",)}
    fields = ("title", "slug", "order", "summary", "add_question")
    readonly_fields = ("add_question",)
    inlines = [QuestionInline]
    actions = [export_banks]
    change_list_template = "admin/questions/bank/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(question_total=Count("questions"))

    @admin.display(description="New question")
    def add_question(self, bank: Bank) -> str:
        if bank.pk is None:
            return "Save the bank first, then add its questions."
        url = reverse("admin:questions_question_add") + f"?bank={bank.pk}"
        return format_html('<a class="addlink" href="{}">Add a question to this bank</a> (placed after its last)', url)

    @admin.display(description="questions", ordering="question_total")
    def question_count(self, bank: Bank) -> int:
        return bank.question_total


class QuestionForm(ContentRulesForm, CalculatorValuesForm):
    question = MarkdownField(
        widget=MarkdownWidget(rows=5), help_text="Markdown: the question as an interviewer asks it."
    )
    answer = MarkdownField(widget=MarkdownWidget(rows=8), help_text="Markdown: the plain-language answer.")
    takeaway = MarkdownField(max_length=300, widget=MarkdownWidget(inline=True, rows=2), help_text="One line.")
    checks = LinesField(
        help_text="One per line: text the worked answer at these values must show (checked when you save)."
    )
    follow_ups = LinesField(label="Follow-ups", help_text="One per line: what an interviewer asks next.")
    strong_answer = LinesField(help_text="One per line: what a strong answer covers.")
    red_flags = LinesField(help_text="One per line: what a weak answer says or misses.")

    class Meta:
        model = Question
        exclude = ("values",)

    def content_entry(self) -> dict:
        data = self.cleaned_data
        keys = ("slug", "order", "title", "difficulty", "question", "answer", "takeaway", "checks", "follow_ups",
                "strong_answer", "red_flags")  # fmt: skip
        entry = {key: data.get(key) for key in keys}
        entry["calculator"] = self.calculator_spec.slug if self.calculator_spec else data.get("calculator")
        entry["values"] = self.cleaned_values or {}
        entry["terms"] = sorted(term.slug for term in data.get("terms") or [])
        return entry

    def read_content_entry(self, entry: dict) -> None:
        question_record(ADMIN, entry, set(Term.objects.filter(slug__in=entry["terms"]).values_list("slug", flat=True)))
        bank = self.cleaned_data["bank"]
        clash = order_clashes({self.instance.pk: (bank.pk, entry["order"])}).get(self.instance.pk)
        if clash:
            raise ContentError(ADMIN, "order", clash_message(entry["order"], clash))


@admin.register(Question)
class QuestionAdmin(CalculatorValuesAdmin):
    form = QuestionForm
    list_display = ("title", "bank", "order", "difficulty", "calculator", "updated")
    list_editable = ("order",)
    list_filter = ("bank", "difficulty", "calculator")
    list_select_related = ("bank",)
    search_fields = ("title", "slug", "question", "answer", "takeaway")
    ordering = ("bank__order", "order", "title")
    prepopulated_fields = {"slug": ("title",)}
    autocomplete_fields = ("terms",)
    change_list_template = "admin/questions/question/change_list.html"
    fieldsets = (
        (None, {"fields": ("bank", "title", "slug", "order", "difficulty")}),
        ("Question and answer", {"fields": ("question", "answer", "takeaway")}),
        ("Worked answer", {"fields": ("calculator", VALUES, "checks")}),
        ("For the interviewer", {"fields": ("follow_ups", "strong_answer", "red_flags")}),
        ("Glossary", {"fields": ("terms",)}),
    )

    def get_changelist_formset(self, request, **kwargs):
        return super().get_changelist_formset(request, formset=QuestionOrderFormSet, **kwargs)

    def get_changeform_initial_data(self, request):
        """A new question (``?bank=<id>`` from a bank's page) starts at the first free place at the end of its bank."""
        initial = super().get_changeform_initial_data(request)
        bank = str(initial.get("bank", ""))
        if bank.isdigit() and "order" not in initial:
            last = Question.objects.filter(bank_id=int(bank)).aggregate(last=Max("order"))["last"]
            initial["order"] = (last or 0) + 1
        return initial
