from django.apps import AppConfig


class PracticeConfig(AppConfig):
    name = "practice"
    verbose_name = "Practice"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from .learners import merge_on_login

        user_logged_in.connect(merge_on_login, dispatch_uid="practice-merge-on-login")
