<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/*
|--------------------------------------------------------------------------
| Debug backtrace
|--------------------------------------------------------------------------
| Show a backtrace next to PHP errors (only while ENVIRONMENT allows errors).
*/
defined('SHOW_DEBUG_BACKTRACE') OR define('SHOW_DEBUG_BACKTRACE', TRUE);

/*
|--------------------------------------------------------------------------
| File and directory modes
|--------------------------------------------------------------------------
*/
defined('FILE_READ_MODE')  OR define('FILE_READ_MODE', 0644);
defined('FILE_WRITE_MODE') OR define('FILE_WRITE_MODE', 0666);
defined('DIR_READ_MODE')   OR define('DIR_READ_MODE', 0755);
defined('DIR_WRITE_MODE')  OR define('DIR_WRITE_MODE', 0755);

/*
|--------------------------------------------------------------------------
| File stream modes
|--------------------------------------------------------------------------
*/
defined('FOPEN_READ')                  OR define('FOPEN_READ', 'rb');
defined('FOPEN_READ_WRITE')            OR define('FOPEN_READ_WRITE', 'r+b');
defined('FOPEN_WRITE_CREATE_DESTRUCTIVE') OR define('FOPEN_WRITE_CREATE_DESTRUCTIVE', 'wb');
defined('FOPEN_WRITE_CREATE')          OR define('FOPEN_WRITE_CREATE', 'ab');

/*
|--------------------------------------------------------------------------
| Exit status codes
|--------------------------------------------------------------------------
*/
defined('EXIT_SUCCESS')  OR define('EXIT_SUCCESS', 0);
defined('EXIT_ERROR')    OR define('EXIT_ERROR', 1);
defined('EXIT_CONFIG')   OR define('EXIT_CONFIG', 3);
defined('EXIT_UNKNOWN_FILE')   OR define('EXIT_UNKNOWN_FILE', 4);
defined('EXIT_UNKNOWN_METHOD') OR define('EXIT_UNKNOWN_METHOD', 6);
defined('EXIT_DATABASE') OR define('EXIT_DATABASE', 8);

/*
|--------------------------------------------------------------------------
| Application
|--------------------------------------------------------------------------
| SITE_AREA is the first URI segment of the admin area (see routes.php).
*/
defined('SITE_AREA') || define('SITE_AREA', 'admin');
