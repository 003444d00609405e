<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Users: sign in, sign out and registration (reached as /login, /logout, /register).
 */
class Users extends CI_Controller
{
    public function __construct()
    {
        parent::__construct();
        $this->load->helper(array('form', 'url'));
    }

    public function login()
    {
        $this->load->view('users/login');
    }

    public function logout()
    {
        $this->load->library('session');
        $this->session->sess_destroy();
        redirect(Route::named('login'));
    }

    public function register()
    {
        $this->load->view('users/register');
    }
}
