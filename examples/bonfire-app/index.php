<?php
/*
 * The front controller (abridged from CodeIgniter 3's index.php): it defines the
 * environment before the framework starts. The server sets CI_ENV in production.
 */
define('ENVIRONMENT', isset($_SERVER['CI_ENV']) ? $_SERVER['CI_ENV'] : 'development');

$system_path = 'system';
$application_folder = 'application';

define('FCPATH', dirname(__FILE__).DIRECTORY_SEPARATOR);
define('APPPATH', FCPATH.$application_folder.DIRECTORY_SEPARATOR);
