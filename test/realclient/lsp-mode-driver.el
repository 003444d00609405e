;;; lsp-mode-driver.el --- drive ci-routes' server from batch Emacs as README's lsp-mode set-up starts it -*- lexical-binding: t -*-
;;
;;   emacs --batch --eval '(package-activate-all)' -l <snippet.el> -l lsp-mode-driver.el
;;
;; The snippet is loaded as a user's init file would be; the driver opens a route file and runs
;; `lsp' as a user would, answering lsp-mode's one question (the project root) beforehand.
;;
;; Env: CI_FILE (a route file), CI_ROOT (the root the user chooses: the folder holding
;; application/), CI_MIN_DIAGNOSTICS, CI_OUT, CI_STEP_S, CI_TOTAL_S.
;; Exit: 0 ok, 1 failure, 2 timeout, 3 watchdog.

(load (expand-file-name "driver-common.el" (file-name-directory load-file-name)) nil t)

(defvar drv-file (expand-file-name (drv-env "CI_FILE" "")))
(defvar drv-root (file-name-as-directory (expand-file-name (drv-env "CI_ROOT" ""))))
(defvar drv-min-diags (string-to-number (drv-env "CI_MIN_DIAGNOSTICS" "0")))

(require 'lsp-mode)
;; Test settings, not the set-up's: the session file in the test's home, no prompt on a server's exit.
(setq lsp-session-file (expand-file-name "lsp-session" (getenv "HOME"))
      lsp-restart 'ignore)
;; lsp-mode 8.0's php-ls client counts as installed until its command is first worked out, then
;; starts `php': on a machine without PHP, `lsp' fails with (file-missing ... "php") whatever the
;; add-on servers. Not installed here: left out, as on a machine where its check works.
(setq lsp-disabled-clients '(php-ls))
;; The answer to lsp-mode's question "which project root?".
(lsp-workspace-folders-add drv-root)

(defun drv-ci-routes-workspace ()
  (cl-find-if (lambda (w) (and (eq (lsp--client-server-id (lsp--workspace-client w)) 'ci-routes)
                               (eq (lsp--workspace-status w) 'initialized)))
              (lsp-workspaces)))

(defun drv-diagnostics ()
  (let ((table (lsp-diagnostics t)))
    (and table (gethash drv-file table))))

(defun drv-main ()
  (with-current-buffer (find-file-noselect drv-file)
    (drv-put "mode" (symbol-name major-mode))
    (lsp)
    (drv-wait "the ci-routes workspace" #'drv-ci-routes-workspace)
    (let ((ws (drv-ci-routes-workspace)))
      (drv-put "root" (lsp--workspace-root ws))
      (drv-put "servers" (vconcat (mapcar (lambda (w) (symbol-name (lsp--client-server-id (lsp--workspace-client w)))) (lsp-workspaces))))
      (drv-wait "diagnostics" (lambda () (>= (length (drv-diagnostics)) (max 1 drv-min-diags))))
      (drv-put "diagnostics" (vconcat (mapcar (lambda (d) (list (cons "code" (gethash "code" d))
                                                                (cons "line" (gethash "line" (gethash "start" (gethash "range" d))))))
                                              (drv-diagnostics))))
      ;; Notifications after the diagnostics (lsp-mode warns of any it does not know) arrive meanwhile.
      (accept-process-output nil 1)
      (lsp-workspace-shutdown ws))
    (if drv-errors 1 0)))

(drv-finish
 (condition-case err
     (drv-main)
   (drv-timeout (push (format "%s" (cadr err)) drv-errors) 2)
   (error (push (format "%S" err) drv-errors) 1)))
