<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/*
| Modular Extensions (HMVC) takes over routing: CodeIgniter loads MY_Router
| in place of CI_Router, and MX_Router reads the modules' config/routes.php.
| (The MX files themselves, application/third_party/MX/, are left out.)
*/
require APPPATH.'third_party/MX/Router.php';

class MY_Router extends MX_Router {}
