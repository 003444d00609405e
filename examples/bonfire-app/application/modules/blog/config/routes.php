<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/*
| Blog module routes (Modular Extensions). Keys are whole URIs starting with
| the module name; values are relative to the module (posts => blog/posts).
*/
$route['blog'] = 'posts';
$route['blog/archive/(:num)'] = 'posts/archive/$1';
$route['blog/archive/(:num)/(:num)'] = 'posts/archive/$1/$2';
