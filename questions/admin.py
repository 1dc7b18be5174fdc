"""Banks and questions in the admin: lists to sort and filter, a question's calculator inputs as real fields."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import Count

from instructors.admin_base import VALUES, CalculatorValuesAdmin, ContentAdmin, export_banks
from instructors.forms import CalculatorValuesForm, LinesField, MarkdownField, MarkdownWidget

from .content import missing_checks
from .models import Bank, Question


class QuestionInline(admin.TabularInline):
    """A bank's questions, to reorder or retitle in place; a question's own page has everything else."""

    model = Question
    fields = ("order", "title", "difficulty", "slug")
    readonly_fields = ("slug",)
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ("order", "title")

    def has_add_permission(self, request, obj=None):
        return False  # a new question needs its calculator and worked answer: the "Add question" page


class BankForm(forms.ModelForm):
    summary = MarkdownField(required=False, widget=MarkdownWidget(rows=3), help_text="Markdown: what the bank covers.")

    class Meta:
        model = Bank
        fields = ("title", "slug", "order", "summary")


@admin.register(Bank)
class BankAdmin(ContentAdmin):
    form = BankForm
    list_display = ("title", "slug", "order", "question_count", "updated")
    list_display_links = ("title",)
    list_editable = ("order",)
    search_fields = ("title", "slug", "summary")
    prepopulated_fields = {"slug": ("title",)}
    fields = ("title", "slug", "order", "summary")
    inlines = [QuestionInline]
    actions = [export_banks]
    change_list_template = "admin/questions/bank/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(question_total=Count("questions"))

    @admin.display(description="questions", ordering="question_total")
    def question_count(self, bank: Bank) -> int:
        return bank.question_total


class QuestionForm(CalculatorValuesForm):
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

    def check_worked_answer(self, spec, full, cleaned):
        for check in missing_checks(spec.slug, full, cleaned.get("checks") or []):
            self.add_error("checks", f"The worked answer at these values does not show “{check}”.")


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
