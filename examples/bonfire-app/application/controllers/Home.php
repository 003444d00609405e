<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Home: the front page (default_controller).
 */
class Home extends CI_Controller
{
    public function index()
    {
        $this->load->view('home/index');
    }
}
