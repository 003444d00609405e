<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/*
| Production routes. CodeIgniter's router includes this file after
| config/routes.php when ENVIRONMENT is 'production', in the same scope:
| what it writes into $route adds to or replaces the main file's routes.
*/

// Registration is closed on the live site while the new club season is set up.
$route['register'] = 'pages/show/registration-closed';

// A maintenance page the operators can switch on without touching the main file.
$route['maintenance'] = 'pages/show/maintenance';
