;;; driver-common.el --- what the batch-Emacs drivers share: settings from the environment, the report, the deadlines -*- lexical-binding: t -*-
;;
;; Loaded by eglot-driver.el and lsp-mode-driver.el.  Env: CI_OUT (the JSON report), CI_STEP_S,
;; CI_TOTAL_S.  The report is an alist written as JSON by `drv-finish', which exits Emacs.

(require 'cl-lib)
(require 'json)

(defun drv-env (name default)
  (let ((v (getenv name))) (if (and v (not (string-empty-p v))) v default)))

(defvar drv-out (drv-env "CI_OUT" "driver-result.json"))
;; Deadlines that catch a hang, not speed requirements.
(defvar drv-step (string-to-number (drv-env "CI_STEP_S" "30")))
(defvar drv-total (string-to-number (drv-env "CI_TOTAL_S" "120")))

(defvar drv-t0 (float-time))
(defun drv-ms () (round (* 1000 (- (float-time) drv-t0))))
(defvar drv-report (list (cons "emacs" emacs-version)))
(defvar drv-errors nil)
(defvar drv-finished nil)

(defun drv-put (key value) (setq drv-report (append drv-report (list (cons key value)))))

(defun drv-finish (code)
  (unless drv-finished
    (setq drv-finished t)
    (drv-put "errors" (vconcat (reverse drv-errors)))
    (drv-put "exit_code" code)
    (drv-put "total_ms" (drv-ms))
    (with-temp-file drv-out (insert (json-encode drv-report) "\n"))
    (kill-emacs code)))

;; Timers fire while Emacs waits in accept-process-output.
(run-at-time drv-total nil (lambda () (push (format "watchdog: %ss" drv-total) drv-errors) (drv-finish 3)))

(define-error 'drv-timeout "driver timeout")
(defun drv-wait (what pred)
  "Pump the event loop until PRED is non-nil, at most `drv-step' seconds."
  (let ((start (float-time)))
    (while (and (not (funcall pred)) (< (- (float-time) start) drv-step))
      (accept-process-output nil 0.05))
    (or (funcall pred) (signal 'drv-timeout (list (format "timed out waiting for %s" what))))))
